# One image for every app. APP selects what runs: ingest-api, brain-api, enrichment-worker,
# hygiene-worker, migrate (the one-shot migration job) or memex (all in one process).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The install's prepare script builds the dashboard (apps/dashboard/dist), so its sources come first;
# the CLI's build script, also in prepare, finds no CLI sources here and skips (the image runs no CLI).
COPY apps/dashboard apps/dashboard
COPY apps/cli/build.mjs apps/cli/build.mjs
RUN npm ci --no-audit --no-fund
COPY tsconfig.json .swcrc ./
COPY apps apps
COPY libs libs
RUN npm run build

# Production dependencies only, installed apart so no build tool reaches the final image.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/apps/dashboard/dist ./apps/dashboard/dist
COPY package.json ./
# The code is root's and read-only to the process, which runs as the unprivileged `node` user.
USER node
ENV APP=ingest-api HOST=0.0.0.0 PORT=8080
EXPOSE 8080
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
