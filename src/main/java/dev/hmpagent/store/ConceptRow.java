package dev.hmpagent.store;

import java.util.List;

/** A row of {@code concepts} with its links ("relation other-concept", outgoing and incoming). */
public record ConceptRow(long id, String name, String description, List<String> links) {
    public ConceptRow {
        links = List.copyOf(links);
    }
}
