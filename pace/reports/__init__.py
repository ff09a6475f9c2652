"""Read-side rendering: status documents, timing sheets and reports."""
