/**
 * @convene/sdk: the typed Convene client (generated from the API reference, called through
 * openapi-fetch) and webhook verification (Web Crypto). Node 20+ and edge runtimes.
 */
export {
  Convene,
  createConvene,
  type ConveneOptions,
  type RequestOptions,
  type RequestBody,
  type ResponseOf,
  type QueryOf,
} from './client.js';
export {
  ConveneError,
  isConveneError,
  type ConveneErrorCode,
  type ApiErrorCode,
  type ClientErrorCode,
  type ConveneErrorDetail,
} from './errors.js';
export { PageRequest, type Page } from './pagination.js';
export type { TransportOptions } from './transport.js';
export {
  verifyWebhook,
  isTestDelivery,
  DEFAULT_TOLERANCE_SECONDS,
  WebhookVerificationError,
  WebhookMissingHeaderError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookPayloadError,
  type WebhookEvent,
  type WebhookEventName,
  type WebhookEventOf,
  type WebhookEventData,
  type WebhookTestData,
  type WebhookHeaders,
  type VerifyWebhookOptions,
  type WebhookVerificationErrorCode,
} from './webhooks.js';
export type { paths, components, webhooks, operations } from './generated/openapi.js';

import type { components } from './generated/openapi.js';
/** Named shapes of the API reference (`components.schemas`), e.g. `Schemas['Room']`. */
export type Schemas = components['schemas'];
