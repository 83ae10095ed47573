import { route, auth } from '@/lib/http/route';
import { tenantBrandingView, updateTenantBranding } from '@/lib/domain/branding';
import { brandingInput, tenantBrandingResponse } from '@/lib/domain/branding.schemas';

export const GET = route(
  {
    tag: 'Tenant',
    summary: 'Read the hosted call UI branding (own and effective)',
    auth: auth.tenant('tenant.read'),
    response: tenantBrandingResponse,
  },
  ({ auth }) => tenantBrandingView(auth.tenant),
);

export const PATCH = route(
  {
    tag: 'Tenant',
    summary: 'Set the hosted call UI branding and default language',
    auth: auth.tenant('tenant.manage'),
    body: brandingInput,
    response: tenantBrandingResponse,
  },
  ({ auth, body }) => updateTenantBranding(auth.tenant, body),
);
