"""Static files storage: hashed names from collectstatic, unhashed fallback before it ran."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Hashed, compressed files in production; tests and dev work without collectstatic."""

    manifest_strict = False
