//! The fields a tool is indexed under, with their BM25F weights and the names search results
//! give them in `matches`.

/// The fields a tool is indexed under, with their BM25F weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Field {
    Name,
    Namespace,
    Title,
    Description,
    NamespaceDescription,
    InputProperty,
    InputPropertyDescription,
    OutputProperty,
    OutputPropertyDescription,
    /// Words the thesaurus relates to the name's words (`create_relations`: `link`, `connect`).
    NameRelated,
}

/// How many fields there are.
pub(super) const FIELD_COUNT: usize = 10;

pub(super) const FIELDS: [Field; FIELD_COUNT] = [
    Field::Name,
    Field::Namespace,
    Field::Title,
    Field::Description,
    Field::NamespaceDescription,
    Field::InputProperty,
    Field::InputPropertyDescription,
    Field::OutputProperty,
    Field::OutputPropertyDescription,
    Field::NameRelated,
];

impl Field {
    pub(super) fn weight(self) -> f64 {
        match self {
            Field::Name => 3.0,
            Field::Namespace => 1.5,
            Field::Title => 2.0,
            Field::Description => 1.0,
            Field::NamespaceDescription => 0.4,
            Field::InputProperty => 0.8,
            Field::InputPropertyDescription => 0.3,
            Field::OutputProperty => 0.5,
            Field::OutputPropertyDescription => 0.2,
            Field::NameRelated => 0.45,
        }
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }

    /// The field's name in search results' `matches`.
    pub(super) fn label(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Namespace => "namespace",
            Field::Title => "title",
            Field::Description => "description",
            Field::NamespaceDescription => "namespace description",
            Field::InputProperty => "input property",
            Field::InputPropertyDescription => "input property description",
            Field::OutputProperty => "output property",
            Field::OutputPropertyDescription => "output property description",
            Field::NameRelated => "name (related word)",
        }
    }
}
