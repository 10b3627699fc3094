# One Node server: the back office with its embedded upstream. Data lives in /data (mount a volume).
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The postinstall step applies patches/ (patch-package): a memo in the route matcher (docs/decisions/router-patch.md).
COPY patches ./patches
# ...and compiles the search's ranking library (scripts/build-native.mjs; g++ brings the C compiler).
COPY scripts/build-native.mjs ./scripts/build-native.mjs
COPY upstream/native ./upstream/native
RUN npm ci --no-audit --no-fund && node scripts/build-native.mjs --require
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
# The converters' programs (docs/decisions/converters.md): LibreOffice headless, poppler, tesseract; prlimit is in
# util-linux, already there.
COPY scripts/ensure-converters.sh ./scripts/ensure-converters.sh
RUN bash scripts/ensure-converters.sh && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/.cache/native/rank.so ./.cache/native/rank.so
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/scripts/start.sh ./scripts/start.sh
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK CMD node -e "fetch('http://localhost:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The allocator settings of scripts/start.sh (docs/decisions/memory-settings.md), then node build/server.js.
CMD ["sh", "scripts/start.sh"]
