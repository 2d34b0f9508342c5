// The kept till's guard (docs/security.md, "The kept till"). The service worker serves its copy
// of this page when Counter cannot be reached; that copy names the user and lists their sales.
// This inline script runs before any of that is parsed: unless the browser still holds the
// marker cookie of the session the page was made for (lib/auth/till-marker.ts), it stops the
// page, forgets the kept copy and shows only a sign-in prompt. So a sign-out anywhere (which
// clears the cookie), an expired session (the cookie expires with it) or another person's
// sign-in never shows the previous user's till. A page made without a marker (a session from
// before markers) is never kept: the guard forgets any copy and the service worker stores none.
import { cookies } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { SESSION_COOKIE, TILL_COOKIE, tillMarker } from '@/lib/auth';

/** A JSON string literal safe inside <script> (no "</script>", no U+2028/9 surprises). */
const literal = (s: string) =>
  JSON.stringify(s)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export function guardScript(marker: string, hidden: string, signIn: string): string {
  return `(function(m,msg,signIn){
function forget(){try{caches.keys().then(function(ks){ks.forEach(function(k){if(/-shell$/.test(k))caches.delete(k)})})}catch(e){}
try{var c=navigator.serviceWorker&&navigator.serviceWorker.controller;if(c)c.postMessage({type:'forget'})}catch(e){}}
if(!m){forget();return}
if(document.cookie.split(/;\\s*/).indexOf(${literal(TILL_COOKIE + '=')}+m)>=0)return;
try{window.stop()}catch(e){}
forget();
var d=document,b=d.body;d.documentElement.setAttribute('data-till-hidden','');b.textContent='';
var main=d.createElement('main'),card=d.createElement('div');main.className='auth-shell';card.className='auth-card';
var p=d.createElement('p');p.setAttribute('role','alert');p.setAttribute('data-testid','till-hidden');p.textContent=msg;
var a=d.createElement('a');a.href='/login?next=%2Fpos';a.className='btn btn-primary';a.textContent=signIn;
card.appendChild(p);card.appendChild(a);main.appendChild(card);b.appendChild(main);
})(${literal(marker)},${literal(hidden)},${literal(signIn)})`;
}

export async function KeptTillGuard() {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  const marker = token && jar.get(TILL_COOKIE)?.value === tillMarker(token) ? tillMarker(token) : '';
  const t = await getTranslations('till');
  return (
    <script
      id="kept-till-guard"
      data-till-marker={marker}
      dangerouslySetInnerHTML={{ __html: guardScript(marker, t('keptTillHidden'), t('keptTillSignIn')) }}
    />
  );
}
