import { route, auth } from '@/lib/http/route';
import { tenantBrandingView, updateTenantBranding } from '@/lib/domain/branding';
import { brandingInput } from '@/lib/domain/branding.schemas';
import { tenantBrandingResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('tenant.read'), response: tenantBrandingResponse }, ({ auth }) =>
  tenantBrandingView(auth.tenant),
);

export const PATCH = route(
  { auth: auth.tenant('tenant.manage'), body: brandingInput, response: tenantBrandingResponse },
  ({ auth, body }) => updateTenantBranding(auth.tenant, body),
);
