let s = "unterminated;
