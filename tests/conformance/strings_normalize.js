const samples = ["Crème Brûlée", "Ångström", "naïve café", "Škoda Žilina", "Łódź", "Øresund", "ÀÉÎÕÜ àéîõü", "çÇñÑ", "Dvořák", "Ærøskøbing", "ﬁ", "İstanbul"];
return samples.map(s => [s.normalize("NFD").length, s.normalize("NFD").replace(/[\u0300-\u036f]/g, ""), s.normalize("NFD").normalize("NFC") === s, s.normalize() === s]);
