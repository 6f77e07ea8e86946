export { createReviewHandler } from './create-review-handler.js';
export type { ReviewHandlerOptions } from './create-review-handler.js';
export { startReviewServer } from './start-review-server.js';
export type { ReviewServer, ReviewServerOptions } from './start-review-server.js';
export type { ReviewCall, ReviewCalls, ReviewOperations } from './review-operations.js';
export { TOKEN_HEADER } from './review-request.js';
export { auditCalls } from './audit-calls.js';
export type { ReviewApprovals, ReviewPendingApproval } from './review-approvals.js';
