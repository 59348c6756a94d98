# Slash commands: names, descriptions, options and choices (Discord localisations).
