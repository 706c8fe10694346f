# The image compose.yaml runs: the game server with the PostgreSQL driver, on the compiled engine.
# The full image has a C compiler, so the wheel built there is compiled with mypyc (setup.py);
# the slim image that runs it needs no compiler.
FROM python:3.11 AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY src ./src
RUN pip wheel --no-cache-dir --no-deps -w /wheels .

FROM python:3.11-slim
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir "$(ls /wheels/fusegame-*.whl)[postgres]" && rm -rf /wheels
EXPOSE 8000
CMD ["fuse", "serve", "--host", "0.0.0.0", "--port", "8000"]
