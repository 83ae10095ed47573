import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { isLanguage, LANGUAGE_HEADER } from '@/lib/i18n/languages';
import './globals.css';

export const metadata: Metadata = {
  title: 'Convene',
  description: 'Hosted video meetings for your product',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

// A hosted page's language, decided by the proxy from its URL, tenant and browser; English elsewhere.
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const lang = (await headers()).get(LANGUAGE_HEADER);
  return (
    <html lang={isLanguage(lang) ? lang : 'en'}>
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
      </body>
    </html>
  );
}
