import { Joi } from '@mm/config';

/**
 * decisions 9: a URL the service calls (notify_url, a merchant's default webhook URL) or sends a customer
 * to (return_url) is an http(s) URL of at most 2048 characters; what it resolves to is checked at send time.
 * One schema, so the API and the back-office refuse the same values.
 */
export const httpUrl = Joi.string()
  .max(2048)
  .uri({ scheme: ['http', 'https'] });
