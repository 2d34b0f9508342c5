'use client';
import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { localeNumber } from '@/lib/i18n';
import type { ProductView } from '@/lib/backoffice';
import { useAdminCall } from '../_components/api';
import { ActionButton, HydratedFields, SubmitButton } from '@/app/_lib/action-button';

const MAX_IMAGE_BYTES = 48 * 1024;
type Draft = {
  sku: string;
  name: string;
  description: string;
  icon: string;
  price: string;
  tax_rate: string;
  sort: string;
  category: string;
  barcode: string;
  low_stock: string;
  stock: string;
};
const EMPTY: Draft = {
  sku: '',
  name: '',
  description: '',
  icon: '',
  price: '',
  tax_rate: '0',
  sort: '0',
  category: '',
  barcode: '',
  low_stock: '0',
  stock: '',
};
/** The datalist of known categories the product forms offer (docs/catalog.md). */
const CATEGORY_LIST_ID = 'catalog-categories';

function Icon({ icon }: { icon: string }) {
  if (!icon)
    return (
      <span className="bo-icon bo-icon-empty" aria-hidden>
        ◻
      </span>
    );
  return icon.startsWith('data:') ? (
    // eslint-disable-next-line @next/next/no-img-element -- a data: URL icon stored with the product: nothing for next/image to fetch or resize
    <img className="bo-icon" src={icon} alt="" />
  ) : (
    <span className="bo-icon" aria-hidden>
      {icon}
    </span>
  );
}

function ProductForm({
  draft,
  onChange,
  onSubmit,
  submitLabel,
  busy,
  onCancel,
  currency,
  isNew,
}: {
  draft: Draft;
  onChange: (d: Draft) => void;
  onSubmit: () => void;
  submitLabel: string;
  busy: boolean;
  onCancel?: () => void;
  currency: string;
  isNew?: boolean;
}) {
  const t = useTranslations('adminCatalog');
  const ta = useTranslations('admin');
  const [fileError, setFileError] = useState('');
  const set = (k: keyof Draft) => (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...draft, [k]: e.target.value });
  return (
    <form
      className="bo-form-grid"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <HydratedFields>
        <label className="field">
          <span>{t('name')}</span>
          <input value={draft.name} onChange={set('name')} required maxLength={100} />
        </label>
        <label className="field">
          <span>{t('sku')}</span>
          <input value={draft.sku} onChange={set('sku')} required maxLength={64} pattern="[A-Za-z0-9._\-]+" />
        </label>
        <label className="field">
          <span>{t('price', { currency })}</span>
          <input
            value={draft.price}
            onChange={set('price')}
            required
            inputMode="decimal"
            placeholder={currency === 'DOGE' ? '10.5' : '2.50'}
          />
        </label>
        <label className="field">
          <span>{t('taxPct')}</span>
          <input value={draft.tax_rate} onChange={set('tax_rate')} inputMode="decimal" />
        </label>
        <label className="field">
          <span>{t('iconEmoji')}</span>
          <input value={draft.icon.startsWith('data:') ? '' : draft.icon} onChange={set('icon')} maxLength={16} placeholder="☕" />
        </label>
        <label className="field">
          <span>{t('orImage')}</span>
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            onChange={(e) => {
              const f = e.target.files?.[0];
              setFileError('');
              if (!f) return;
              if (f.size > MAX_IMAGE_BYTES) {
                setFileError(t('tooLarge'));
                return;
              }
              const r = new FileReader();
              r.onload = () => onChange({ ...draft, icon: String(r.result) });
              r.readAsDataURL(f);
            }}
          />
        </label>
        <label className="field">
          <span>{t('category')}</span>
          <input value={draft.category} onChange={set('category')} maxLength={64} list={CATEGORY_LIST_ID} />
        </label>
        <label className="field">
          <span>{t('barcode')}</span>
          <input value={draft.barcode} onChange={set('barcode')} maxLength={64} pattern="[ -~]*" autoComplete="off" />
        </label>
        {/* Stock is set here only when the product is created; later changes are adjustments with a reason (docs/catalog.md). */}
        {isNew ? (
          <label className="field">
            <span>{t('stockInitial')}</span>
            <input value={draft.stock} onChange={set('stock')} inputMode="numeric" pattern="-?[0-9]*" />
          </label>
        ) : null}
        <label className="field">
          <span>{t('lowStock')}</span>
          <input value={draft.low_stock} onChange={set('low_stock')} inputMode="numeric" pattern="-?[0-9]*" />
        </label>
        <label className="field bo-span2">
          <span>{t('description')}</span>
          <input value={draft.description} onChange={set('description')} maxLength={500} />
        </label>
        <label className="field">
          <span>{t('order')}</span>
          <input value={draft.sort} onChange={set('sort')} inputMode="numeric" />
        </label>
        <div className="bo-form-actions bo-span2">
          <Icon icon={draft.icon} />
          {fileError ? <span className="form-error">{fileError}</span> : null}
          {draft.icon ? (
            <ActionButton className="btn bo-btn-sm" onClick={() => onChange({ ...draft, icon: '' })}>
              {t('removeIcon')}
            </ActionButton>
          ) : null}
          {onCancel ? (
            <ActionButton className="btn" onClick={onCancel}>
              {ta('cancel')}
            </ActionButton>
          ) : null}
          <SubmitButton className="btn btn-primary" disabled={busy}>
            {busy ? ta('saving') : submitLabel}
          </SubmitButton>
        </div>
      </HydratedFields>
    </form>
  );
}

function toBody(d: Draft) {
  return {
    sku: d.sku.trim(),
    name: d.name,
    description: d.description,
    icon: d.icon,
    price: d.price.trim(),
    tax_rate: d.tax_rate.trim() || '0',
    sort: Number(d.sort) || 0,
    category: d.category.trim(),
    barcode: d.barcode.trim(),
    low_stock: Number(d.low_stock) || 0,
  };
}
const createBody = (d: Draft) => ({ ...toBody(d), stock: d.stock.trim() === '' ? null : Number(d.stock) });

/** An edit: the price is sent only when typed anew (the server reads it in the pricing currency). */
function editBody(d: Draft, p: ProductView) {
  const { price, ...rest } = toBody(d);
  return price && price !== p.price ? { ...rest, price } : rest;
}

/** A product priced before the store switched currency: shown apart, off the till, until re-priced. */
function OtherCurrency({ p, pricing }: { p: ProductView; pricing: string }) {
  const t = useTranslations('adminCatalog');
  if (p.currency === pricing) return null;
  return (
    <span className="bo-badge bo-badge-declined" title={t('notOnTill', { pricing })}>
      {t('pricedIn', { currency: p.currency, pricing })}
    </span>
  );
}

/** A product as the catalog lists it, with Edit and Archive/Restore. */
function ProductRow({ p, pricing, onEdit, onArchive }: { p: ProductView; pricing: string; onEdit: () => void; onArchive: () => void }) {
  const t = useTranslations('adminCatalog');
  const locale = useLocale();
  return (
    <div className="bo-product-row">
      <Icon icon={p.icon} />
      <div className="bo-grow">
        <b>{p.name}</b> {p.archived ? <span className="bo-badge bo-badge-declined">{t('archived')}</span> : null}{' '}
        <OtherCurrency p={p} pricing={pricing} />
        <div className="muted">
          {p.sku}
          {p.category ? ` · ${p.category}` : ''}
          {p.barcode ? ` · ${p.barcode}` : ''}
          {p.tax_rate !== '0' ? ` · ${t('tax', { rate: localeNumber(p.tax_rate, locale) })}` : ''}
          {p.description ? ` · ${p.description}` : ''}
        </div>
      </div>
      <span className="bo-amount">
        {localeNumber(p.price, locale)} {p.currency}
      </span>
      <ActionButton className="btn bo-btn-sm" onClick={onEdit}>
        {t('edit')}
      </ActionButton>
      <ActionButton className="btn bo-btn-sm" onClick={onArchive}>
        {p.archived ? t('restore') : t('archive')}
      </ActionButton>
    </div>
  );
}

/** The edit form's draft of a product (a price in another currency starts empty: it is re-entered in the pricing one). */
function draftOf(p: ProductView, pricing: string): Draft {
  return {
    sku: p.sku,
    name: p.name,
    description: p.description,
    icon: p.icon,
    price: p.currency === pricing ? p.price : '',
    tax_rate: p.tax_rate,
    sort: String(p.sort),
    category: p.category,
    barcode: p.barcode,
    low_stock: String(p.low_stock),
    stock: '',
  };
}

export function CatalogEditor({
  initial,
  pricingCurrency = 'DOGE',
  categories = [],
}: {
  initial: ProductView[];
  pricingCurrency?: string;
  categories?: string[];
}) {
  const t = useTranslations('adminCatalog');
  const adminCall = useAdminCall();
  const [products, setProducts] = useState(initial);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [editing, setEditing] = useState<string | null>(null);
  const [edit, setEdit] = useState<Draft>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ error: boolean; text: string } | null>(null);

  // After an import the page is refreshed with the server's products: show those.
  const [shownInitial, setShownInitial] = useState(initial);
  if (shownInitial !== initial) {
    setShownInitial(initial);
    setProducts(initial);
  }

  const replace = (p: ProductView) => setProducts((ps) => ps.map((x) => (x.id === p.id ? p : x)));

  async function create() {
    setBusy(true);
    const r = await adminCall<ProductView>('POST', '/api/admin/products', createBody(draft));
    setBusy(false);
    if (!r.ok) return setMsg({ error: true, text: r.message });
    setProducts((ps) => [...ps, r.data]);
    setDraft(EMPTY);
    setMsg({ error: false, text: t('added', { name: r.data.name }) });
  }
  async function save(id: string) {
    setBusy(true);
    const before = products.find((x) => x.id === id);
    const r = await adminCall<ProductView>('PATCH', `/api/admin/products/${id}`, before ? editBody(edit, before) : toBody(edit));
    setBusy(false);
    if (!r.ok) return setMsg({ error: true, text: r.message });
    replace(r.data);
    setEditing(null);
    setMsg({ error: false, text: t('savedName', { name: r.data.name }) });
  }
  async function archive(p: ProductView, archived: boolean) {
    const r = await adminCall<ProductView>('PATCH', `/api/admin/products/${p.id}`, { archived });
    if (!r.ok) return setMsg({ error: true, text: r.message });
    replace(r.data);
    setMsg({ error: false, text: archived ? t('archivedName', { name: p.name }) : t('restoredName', { name: p.name }) });
  }

  const others = products.filter((p) => !p.archived && p.currency !== pricingCurrency).length;
  return (
    <>
      {others ? (
        <p className="bo-notice" role="status" data-testid="catalog-currency-notice">
          {t('notice', { pricing: pricingCurrency, n: others })}
        </p>
      ) : null}
      <section className="bo-card">
        <h2>{t('addHeading')}</h2>
        <ProductForm
          draft={draft}
          onChange={setDraft}
          onSubmit={create}
          submitLabel={t('addProduct')}
          busy={busy}
          currency={pricingCurrency}
          isNew
        />
        <datalist id={CATEGORY_LIST_ID}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </section>
      {msg ? (
        <p role={msg.error ? 'alert' : 'status'} className={msg.error ? 'form-error' : 'bo-ok'}>
          {msg.text}
        </p>
      ) : null}
      <section className="bo-card">
        <h2>{t('products')}</h2>
        {products.length === 0 ? (
          <p className="muted">{t('none')}</p>
        ) : (
          <ul className="bo-products">
            {products.map((p) => (
              <li key={p.id} className={p.archived ? 'bo-product archived' : 'bo-product'} data-sku={p.sku}>
                {editing === p.id ? (
                  <ProductForm
                    draft={edit}
                    onChange={setEdit}
                    onSubmit={() => save(p.id)}
                    submitLabel={t('save')}
                    busy={busy}
                    onCancel={() => setEditing(null)}
                    currency={pricingCurrency}
                  />
                ) : (
                  <ProductRow
                    p={p}
                    pricing={pricingCurrency}
                    onEdit={() => {
                      setEditing(p.id);
                      setEdit(draftOf(p, pricingCurrency));
                    }}
                    onArchive={() => archive(p, !p.archived)}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
