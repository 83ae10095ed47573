'use client';

import { useContext } from 'react';
import { I18nContext } from '@/components/call/i18n-context';
import type { Messages } from '@/lib/i18n/messages';

/** The hosted call UI's texts in the page's language (English outside an I18nProvider). */
export function useT(): Messages {
  return useContext(I18nContext);
}
