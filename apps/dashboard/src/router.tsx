import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** Every route of the dashboard lives under /ui; the server answers deep links with the app. */
export const BASE = '/ui';

const NAVIGATED = 'memex:navigated';

/** The path within the app (`/items/01K…`), and its query. */
export function currentLocation(): { path: string; search: URLSearchParams } {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return { path: path || '/', search: new URLSearchParams(window.location.search) };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${to}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event(NAVIGATED));
}

/** The location, re-read on every navigation (links, back and forward). */
export function useLocation(): { path: string; search: URLSearchParams } {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const update = () => setLocation(currentLocation());
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return location;
}

/** A real link (it opens in a new tab, and keyboard users reach it), routed in place on a plain click. */
export function Link({ to, ...props }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a {...props} href={`${BASE}${to}`} onClick={onClick} />;
}
