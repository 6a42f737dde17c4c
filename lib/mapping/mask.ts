import { shownOriginal } from "./issues";

const maskCharacter = "*";
// What stays visible of a masked phone: its layout (spaces, brackets, dashes, dots, slashes, a leading +).
const phoneLayout = /[\s()+\-./]/u;

/** A phone as issues show it: the layout and the last two digits; every other character masked. */
export function maskPhone(value: string): string {
  const characters = Array.from(value.trim());
  let digitsToKeep = 2;
  const masked = characters
    .reverse()
    .map((character) => {
      if (/[0-9]/.test(character) && digitsToKeep > 0) {
        digitsToKeep -= 1;
        return character;
      }
      return phoneLayout.test(character) ? character : maskCharacter;
    })
    .reverse()
    .join("");
  return shownOriginal(masked) ?? "";
}

/** An e-mail address as issues show it: the first two characters, then `***`, then `@` when it had one. */
export function maskEmail(value: string): string {
  const trimmed = value.trim();
  const visible = Array.from(trimmed).slice(0, 2).join("");
  return `${visible}***${trimmed.includes("@") ? "@" : ""}`;
}

/** A birthdate as issues show it: its shape, every digit masked (of any script: "１９８５" is a year too). */
export function maskBirthdate(value: string): string {
  return shownOriginal(value.trim().replace(/\p{Nd}/gu, maskCharacter)) ?? "";
}
