# The image compose.yaml runs: the game server with the PostgreSQL driver.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir '.[postgres]'
EXPOSE 8000
CMD ["fuse", "serve", "--host", "0.0.0.0", "--port", "8000"]
