"""The screens of the game: title, game choice, setup, match, results, rules, settings."""
