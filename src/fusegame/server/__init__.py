"""The browser game server: `fuse serve` (HTTP, WebSockets, the BDT Log)."""
