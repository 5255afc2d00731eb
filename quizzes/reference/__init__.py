"""The reference room: rule pages (text, numbering history, questions) and the card browser."""
