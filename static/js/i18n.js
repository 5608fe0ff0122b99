// The one way page scripts translate their text. base.html loads Django's JavaScript catalog
// (/jsi18n/, the djangojs domain) before any page script; these read it at the time of the
// call, and on a page without it they answer the English text, with Django's own semantics.
//
//   gettext("Upload and import")
//   ngettext("%(count)s image", "%(count)s images", n)          // then interpolate(...)
//   interpolate(gettext("%(done)s of %(total)s files"), { done, total }, true)
//
// `manage.py makemessages -d djangojs` finds these calls by their names: call them so, with
// string literals (not template literals) as the messages, and put data in through named
// placeholders, never by joining translated fragments.

const catalog = () => globalThis.django;

export function gettext(message) {
  return catalog()?.gettext ? catalog().gettext(message) : message;
}

export function ngettext(singular, plural, count) {
  if (catalog()?.ngettext) return catalog().ngettext(singular, plural, count);
  return count == 1 ? singular : plural; // == as Django's catalog: "1" is singular too
}

// interpolate("%(name)s is ready", { name }, true), or with %s and an array, as Django's.
export function interpolate(format, values, named = false) {
  if (catalog()?.interpolate) return catalog().interpolate(format, values, named);
  if (named) return format.replace(/%\(\w+\)s/g, (match) => String(values[match.slice(2, -2)]));
  const queue = [...values];
  return format.replace(/%s/g, () => String(queue.shift()));
}
