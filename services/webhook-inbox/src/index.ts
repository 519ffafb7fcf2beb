export { createInboxApp, type InboxEntry } from './inbox-app.js';
