"""finqa audit."""
