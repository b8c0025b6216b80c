# The game server with the built web app, one process on one port.
FROM node:20-bookworm-slim
WORKDIR /app
RUN npm install -g pnpm@12.4.2
COPY . .
RUN pnpm install --frozen-lockfile && pnpm build
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
EXPOSE 3000
# Pending migrations are applied by the server at start-up (under
# PostgreSQL's advisory lock, so several app nodes can start together).
CMD ["pnpm", "--filter", "@oanquan/server", "start"]
