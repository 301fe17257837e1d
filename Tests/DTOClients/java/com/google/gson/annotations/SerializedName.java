package com.google.gson.annotations;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/** A stand-in for Gson's JSON name of a field. */
@Retention(RetentionPolicy.RUNTIME)
public @interface SerializedName {
    String value();
}
