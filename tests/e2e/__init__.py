"""Web app tests that need live servers or a real browser, and their shared helpers."""
