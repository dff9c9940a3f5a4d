package dev.hmpagent.text;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * What {@code make} returns, asked for once, at the first {@link #get()} (the first caller makes it; the others wait
 * for it). Adapters make their OkHttpClient this way: building one sets up TLS, reading the JDK's trust store, which
 * no start needs before the agent first thinks.
 */
public final class Lazy<T> implements Supplier<T> {
    private final Supplier<T> make;
    private T made;   // guarded by this

    public Lazy(Supplier<T> make) {
        this.make = Objects.requireNonNull(make, "make");
    }

    @Override
    public synchronized T get() {
        if (made == null) made = Objects.requireNonNull(make.get(), "made");
        return made;
    }
}
