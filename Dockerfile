# Two stages: dependencies are built in the first, the slim runtime only copies them.
FROM python:3.11-slim AS build
RUN python -m venv /opt/venv
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine engine
COPY bot bot
# Install the dependencies through the project, then drop the project itself:
# the runtime runs from /app, beside the migrations folder the store applies.
RUN /opt/venv/bin/pip install --no-cache-dir . \
 && /opt/venv/bin/pip uninstall --yes storyteller-bot

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 storyteller \
 && mkdir /data && chown storyteller /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY engine engine
COPY bot bot
COPY migrations migrations
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/bot.sqlite3
# The SQLite file (and its WAL) live on a volume, so they survive a new image.
VOLUME /data
# Numeric, so the host and any orchestrator resolve it the same way (hadolint DL3066).
USER 10001
CMD ["python", "-m", "bot"]
