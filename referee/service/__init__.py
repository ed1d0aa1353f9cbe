"""The live referee service (``pitboss serve``): HTTP, WebSocket, storage, the web page."""
