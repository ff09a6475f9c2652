"""pace: pace-of-play timing and referee tool for golf and swin-golf competitions."""

__version__ = "0.1.0"
