import { route, auth } from '@/lib/http/route';
import { providerBrandingView, updateProviderBranding } from '@/lib/domain/branding';
import { brandingInput } from '@/lib/domain/branding.schemas';
import { brandingResponse } from '@/lib/domain/responses.schemas';

// The provider's default branding: what its tenants' hosted call UI shows where they set none.
export const GET = route({ auth: auth.provider, response: brandingResponse }, ({ auth }) =>
  providerBrandingView(auth.provider),
);

export const PATCH = route({ auth: auth.provider, body: brandingInput, response: brandingResponse }, ({ auth, body }) =>
  updateProviderBranding(auth.provider, body),
);
