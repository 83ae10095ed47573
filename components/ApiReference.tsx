'use client';

import { useEffect, useRef } from 'react';

declare global {
  interface Window {
    Redoc?: { init(specUrl: string, options: object, element: HTMLElement): void };
  }
}

/** Mounts Redoc (served locally) into a node React does not manage, after hydration. */
export function ApiReference({ specUrl }: { specUrl: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const mount = () => {
      if (ref.current) window.Redoc?.init(specUrl, { hideDownloadButton: false }, ref.current);
    };
    if (window.Redoc) return mount();
    const script = document.createElement('script');
    script.src = '/docs/redoc.js';
    script.onload = mount;
    document.head.appendChild(script);
  }, [specUrl]);
  return <div ref={ref} />;
}
