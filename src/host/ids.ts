// Identifiers shared by package.json contributions, the activation shell and the views.
export const SIDEBAR_VIEW_ID = 'pincer.sidebar';
export const PENDING_VIEW_ID = 'pincer.pendingChanges';
