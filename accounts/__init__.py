"""Players: sign-up by nick, a private recovery key, bans."""
