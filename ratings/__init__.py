"""Ratings, leaderboards, profiles, replays and series standings."""
