"""The content filter's evaluation and the non-article pages it is judged on."""
