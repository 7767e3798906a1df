# One image for every app; APP selects which one runs (ingest-api, enrichment-worker, brain-api, memex = all in one).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json .swcrc ./
COPY apps apps
COPY libs libs
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
ENV APP=ingest-api HOST=0.0.0.0 PORT=8080
EXPOSE 8080
CMD ["sh", "-c", "exec node --enable-source-maps dist/apps/${APP}/src/main.js"]
