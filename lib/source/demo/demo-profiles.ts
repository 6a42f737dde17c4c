// The kinds of business the demo generator models: their zone, menu, staff and the people who visit them.

export interface DemoCategory {
  name: string;
  position: number | null;
  /** A category the business removed; a service may still point at it. */
  deleted?: boolean;
}

export interface DemoService {
  name: string;
  description: string | null;
  /** Index into the profile's categories; null = no category. */
  category: number | null;
  price: string | null;
  durationMinutes: number;
  bookable: boolean;
  /** How many staff members provide it (0 = nobody). */
  staffCount: number;
}

export interface DemoProfile {
  kind: "salon" | "garage";
  label: string;
  timeZone: string;
  country: "DE" | "US";
  automotive: boolean;
  staffCount: number;
  openHour: number;
  closeHour: number;
  /** ISO weekdays (1 = Monday … 7 = Sunday) the business is closed. */
  closedWeekdays: readonly number[];
  categories: readonly DemoCategory[];
  services: readonly DemoService[];
  firstNames: readonly string[];
  lastNames: readonly string[];
  streets: readonly string[];
  cities: readonly { name: string; postalCodes: readonly string[] }[];
  emailDomains: readonly string[];
}

const germanPeople = {
  firstNames: [
    "Anna",
    "Lena",
    "Jonas",
    "Lukas",
    "Sophie",
    "Marie",
    "Paul",
    "Felix",
    "Emma",
    "Mia",
    "Leon",
    "Finn",
    "Hannah",
    "Lea",
    "Elias",
    "Jürgen",
    "Özlem",
    "Björn",
    "Zoë",
    "Käthe",
    "Mehmet",
    "Aleksandra",
  ],
  lastNames: [
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Weber",
    "Meyer",
    "Wagner",
    "Becker",
    "Schulz",
    "Hoffmann",
    "Koch",
    "Bauer",
    "Richter",
    "Klein",
    "Wolf",
    "Schröder",
    "Neumann",
    "Schwarz",
    "Zimmermann",
    "Braun",
    "Krüger",
    "Yılmaz",
    "Nowak",
  ],
  streets: [
    "Hauptstraße",
    "Bahnhofstraße",
    "Gartenweg",
    "Schillerstraße",
    "Goethestr.",
    "Lindenallee",
    "Am Markt",
    "Berliner Str.",
    "Friedrichstraße",
    "Kastanienallee",
  ],
  cities: [
    { name: "Berlin", postalCodes: ["10115", "10247", "10437", "10961", "12043", "13353"] },
    { name: "Potsdam", postalCodes: ["14467", "14469", "14482"] },
    { name: "Bernau", postalCodes: ["16321"] },
    { name: "Falkensee", postalCodes: ["14612"] },
  ],
  emailDomains: ["example.de", "example.com", "mail.example", "example.net"],
};

const americanPeople = {
  firstNames: [
    "James",
    "Mary",
    "Robert",
    "Patricia",
    "John",
    "Jennifer",
    "Michael",
    "Linda",
    "David",
    "Elizabeth",
    "William",
    "Barbara",
    "Susan",
    "José",
    "Chloé",
    "DeShawn",
    "Aaliyah",
    "Wei",
    "Priya",
    "Connor",
  ],
  lastNames: [
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Garcia",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Lopez",
    "Wilson",
    "Anderson",
    "Taylor",
    "Moore",
    "Jackson",
    "O'Brien",
    "Nguyen",
    "Kim",
    "Patel",
  ],
  streets: ["Main St", "Oak Ave", "Maple Dr", "Broadway", "5th Ave", "Elm St", "Park Pl", "Washington Blvd", "Cedar Ln"],
  cities: [
    { name: "New York", postalCodes: ["10001", "10013", "10027", "10128"] },
    { name: "Brooklyn", postalCodes: ["11201", "11215", "11238"] },
    { name: "Jersey City", postalCodes: ["07302", "07306"] },
    { name: "Hoboken", postalCodes: ["07030"] },
    { name: "Yonkers", postalCodes: ["10701", "10705"] },
  ],
  emailDomains: ["example.com", "example.org", "mail.example", "example.net"],
};

const salon: DemoProfile = {
  kind: "salon",
  label: "Salon",
  timeZone: "Europe/Berlin",
  country: "DE",
  automotive: false,
  staffCount: 6,
  openHour: 9,
  closeHour: 19,
  closedWeekdays: [7],
  categories: [
    { name: "Haarschnitt", position: 1 },
    { name: "Farbe", position: 2 },
    { name: "Pflege", position: null },
    { name: "Aktionen 2019", position: 4, deleted: true },
  ],
  services: [
    {
      name: "Damenhaarschnitt",
      description: "Waschen, Schneiden, Föhnen",
      category: 0,
      price: "39.00",
      durationMinutes: 45,
      bookable: true,
      staffCount: 4,
    },
    { name: "Herrenhaarschnitt", description: null, category: 0, price: "25.00", durationMinutes: 30, bookable: true, staffCount: 3 },
    { name: "Kinderhaarschnitt", description: "bis 12 Jahre", category: 0, price: "15.5", durationMinutes: 30, bookable: true, staffCount: 2 },
    { name: "Föhnen & Styling", description: null, category: 0, price: "19.90", durationMinutes: 30, bookable: true, staffCount: 3 },
    { name: "Färben komplett", description: "inkl. Pflege", category: 1, price: "69.00", durationMinutes: 90, bookable: true, staffCount: 2 },
    { name: "Strähnen", description: "Folientechnik", category: 1, price: "89.50", durationMinutes: 120, bookable: true, staffCount: 2 },
    { name: "Tönung", description: null, category: 1, price: "29.00", durationMinutes: 45, bookable: true, staffCount: 2 },
    { name: "Kopfhautmassage", description: "Entspannung pur", category: 2, price: "24.00", durationMinutes: 30, bookable: true, staffCount: 1 },
    { name: "Bartpflege", description: null, category: 2, price: "12.00", durationMinutes: 15, bookable: true, staffCount: 2 },
    { name: "Beratung", description: "Typberatung, kostenlos", category: 2, price: "0.00", durationMinutes: 15, bookable: true, staffCount: 3 },
    { name: "Sommer-Special", description: "Schnitt + Pflege", category: 3, price: "49.00", durationMinutes: 60, bookable: true, staffCount: 2 },
    { name: "Gutschein", description: "Wertgutschein", category: null, price: "50.00", durationMinutes: 15, bookable: false, staffCount: 0 },
  ],
  ...germanPeople,
};

const garage: DemoProfile = {
  kind: "garage",
  label: "Garage",
  timeZone: "America/New_York",
  country: "US",
  automotive: true,
  staffCount: 4,
  openHour: 8,
  closeHour: 17,
  closedWeekdays: [7],
  categories: [
    { name: "Maintenance", position: 1 },
    { name: "Tires", position: 2 },
    { name: "Repairs", position: 3 },
    { name: "Winter 2019", position: 4, deleted: true },
  ],
  services: [
    { name: "Oil change", description: "Synthetic oil and filter", category: 0, price: "79.99", durationMinutes: 60, bookable: true, staffCount: 3 },
    { name: "State inspection", description: null, category: 0, price: "149.00", durationMinutes: 120, bookable: true, staffCount: 2 },
    { name: "AC service", description: "Recharge and leak test", category: 0, price: "99.00", durationMinutes: 60, bookable: true, staffCount: 1 },
    { name: "Tire change", description: null, category: 1, price: "59.00", durationMinutes: 45, bookable: true, staffCount: 3 },
    { name: "Tire storage", description: "Per season", category: 1, price: "89.00", durationMinutes: 15, bookable: false, staffCount: 0 },
    { name: "Brake check", description: null, category: 2, price: "49.00", durationMinutes: 30, bookable: true, staffCount: 2 },
    {
      name: "Brake pads",
      description: "Front axle, parts included",
      category: 2,
      price: "189.90",
      durationMinutes: 120,
      bookable: true,
      staffCount: 2,
    },
    { name: "Diagnostics", description: "Check engine light", category: 2, price: "89.00", durationMinutes: 45, bookable: true, staffCount: 2 },
    {
      name: "Winter check",
      description: "Battery, coolant, wipers",
      category: 3,
      price: "39.00",
      durationMinutes: 30,
      bookable: true,
      staffCount: 2,
    },
  ],
  ...americanPeople,
};

/** Location i of a generated data set gets profile i mod 3: the demo locations' own order (north, south, garage). */
export const demoProfiles: readonly DemoProfile[] = [salon, salon, garage];

export const vehicleModels: readonly { make: string; models: readonly string[] }[] = [
  { make: "Ford", models: ["F-150", "Escape", "Focus", "Mustang"] },
  { make: "Toyota", models: ["Camry", "Corolla", "RAV4", "Prius"] },
  { make: "Honda", models: ["Civic", "Accord", "CR-V"] },
  { make: "Chevrolet", models: ["Silverado", "Malibu", "Equinox"] },
  { make: "Tesla", models: ["Model 3", "Model Y"] },
  { make: "BMW", models: ["3 Series", "X5"] },
  { make: "Volkswagen", models: ["Jetta", "Golf", "Tiguan"] },
];
