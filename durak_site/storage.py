"""Static files storage: hashed names from collectstatic, unhashed fallback before it ran."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Hashed, compressed files in production; tests and dev work without collectstatic."""

    manifest_strict = False

    def stored_name(self, name: str) -> str:
        try:
            return super().stored_name(name)
        except ValueError:  # not collected (tests, `make run`): WhiteNoise serves it from the finders
            return name
