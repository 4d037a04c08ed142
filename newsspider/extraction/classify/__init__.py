"""What a page is: page type, the confidence that it holds an article, and the content
filter's cheap text-statistics verdict."""
