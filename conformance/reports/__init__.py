"""Reports: the model (data first) and its renderings (JSON, JUnit XML, Markdown, HTML, badge)."""
