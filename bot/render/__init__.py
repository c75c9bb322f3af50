"""Every word, colour and emoji the bot shows: engine data in, discord.py objects out.

Pure functions only (no I/O, no store, no network), so each reply can be
tested from engine results alone.
"""
