import { describe, expect, test } from "vitest";
import { maskBirthdate, maskEmail, maskPhone } from "./mask";

describe("maskPhone", () => {
  test("keeps the layout and the last two digits only", () => {
    expect(maskPhone("+49 171 2345689")).toBe("+** *** *****89");
    expect(maskPhone("(030) 123-45 67")).toBe("(***) ***-** 67");
  });

  test("masks letters too, so a name or an address typed into the field stays hidden", () => {
    expect(maskPhone("anna@example.com")).toBe("************.***");
    expect(maskPhone("call Anna 12")).toBe("**** **** 12");
  });
});

describe("maskEmail", () => {
  test("keeps the first two characters and whether there was an @", () => {
    expect(maskEmail("  anna.smith@example.com ")).toBe("an***@");
    expect(maskEmail("anna.example.com")).toBe("an***");
  });
});

describe("maskBirthdate", () => {
  test("keeps the shape, never a digit", () => {
    expect(maskBirthdate("30.02.1985")).toBe("**.**.****");
    expect(maskBirthdate("unknown")).toBe("unknown");
  });

  test("masks digits of every script: full-width and Arabic-Indic years are years too", () => {
    expect(maskBirthdate("１９８５-０４-１２")).toBe("****-**-**");
    expect(maskBirthdate("١٩٨٥-٠٤-١٢")).toBe("****-**-**");
  });
});
