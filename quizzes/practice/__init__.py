"""Practice: the next question, the answer and its feedback, the learner's progress."""
