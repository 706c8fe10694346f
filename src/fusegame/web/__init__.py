"""The browser game's drawing helpers: cards and dice as SVG."""
