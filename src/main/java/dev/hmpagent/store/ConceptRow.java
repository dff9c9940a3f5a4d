package dev.hmpagent.store;

import java.util.List;

/**
 * A row of {@code concepts} with its links ("relation other-concept", outgoing and incoming); {@code pinned}
 * while it is shown in context 3 every tick (concept_pin).
 */
public record ConceptRow(long id, String name, String description, List<String> links, boolean pinned) {
    public ConceptRow {
        links = List.copyOf(links);
    }
}
