export { GraphMemClient, type ClientOptions, type WebSocketImpl } from './client.js';
export { GraphMemError } from './errors.js';
export { collect, nodes, pages, type Connection } from './pagination.js';
export * from './generated/graphql.js';
