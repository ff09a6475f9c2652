"""The web adapter: HTTP pages and JSON, Socket.IO handlers, broadcasts."""
