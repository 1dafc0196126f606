# Card Table: the Discord bot in a small image.
#   docker build -t card-table .
#   docker run -d --name card-table --env-file .env -v cardtable-data:/data card-table
# The SQLite database lives on the /data volume (DATABASE_URL below; leave it out of
# .env, or the database ends up inside the container and is lost with it).  Set
# DATABASE_URL to use PostgreSQL instead (see compose.yaml and docs/hosting.md).
# A host folder instead of the named volume must belong to the image's user, uid 10001:
#   mkdir -p data && sudo chown 10001:10001 data
#   docker run -d --name card-table --env-file .env -v "$PWD/data:/data" card-table
# `docker stop` sends SIGTERM: the bot stores the last moves, closes and exits 0.
# /healthz and /metrics listen on 127.0.0.1:8080 inside the container (HEALTH_PORT,
# HEALTH_HOST).

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engine ./engine
COPY migrations ./migrations
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/cardtable.db \
    HEALTH_PORT=8080 \
    HEALTH_HOST=127.0.0.1
RUN useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin cardtable \
    && mkdir -p /app /data \
    && chown cardtable:cardtable /app /data
COPY --from=build /install /usr/local
WORKDIR /app
USER cardtable
VOLUME ["/data"]
STOPSIGNAL SIGTERM
# /healthz inside the container (gateway, database, writer); with HEALTH_PORT= (empty)
# the endpoint is off and `python -m bot health` runs `doctor --quick` instead.
# Publishing /metrics: HEALTH_HOST=0.0.0.0 and -p 127.0.0.1:8080:8080 (docs/hosting.md).
HEALTHCHECK --interval=60s --timeout=20s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot", "run"]
