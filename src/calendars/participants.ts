// A meeting's attendees as a note's participants: the name and address from the
// invite, the company from the address's domain (not for public mail services, where
// the domain says nothing of anyone's company). No image is looked up: an attendee's
// address is never sent to a third party.

/** Mail services whose domain names no company. */
const PUBLIC_MAIL = new Set(
  [
    "gmail.com",
    "googlemail.com",
    "outlook.com",
    "hotmail.com",
    "live.com",
    "msn.com",
    "yahoo.com",
    "ymail.com",
    "icloud.com",
    "me.com",
    "mac.com",
    "aol.com",
    "proton.me",
    "protonmail.com",
    "pm.me",
    "gmx.com",
    "gmx.de",
    "gmx.net",
    "web.de",
    "mail.com",
    "yandex.com",
    "yandex.ru",
    "zoho.com",
    "fastmail.com",
    "hey.com",
    "tutanota.com",
    "qq.com",
    "163.com",
  ].map((d) => d.toLowerCase()),
);

const companyOf = (domain: string) => {
  const parts = domain.split(".");
  // acme.co.uk, acme.com.au: the company is the label before the second-level suffix.
  const suffix = parts.length > 2 && /^(co|com|org|net|ac|gov)$/.test(parts[parts.length - 2]) ? 3 : 2;
  const label = parts[parts.length - suffix] ?? domain;
  return label.charAt(0).toUpperCase() + label.slice(1);
};

export function participantsOf(attendees: { email: string; displayName: string }[]) {
  return attendees.map((a) => {
    const domain = a.email.split("@")[1] ?? "";
    const company = domain && !PUBLIC_MAIL.has(domain);
    return {
      name: a.displayName || a.email.split("@")[0],
      email: a.email,
      profileImageUrl: "",
      accountName: company ? companyOf(domain) : "",
      accountDomain: company ? domain : "",
      accountImageUrl: "",
    };
  });
}
