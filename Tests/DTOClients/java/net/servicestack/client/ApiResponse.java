package net.servicestack.client;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface ApiResponse {
    String Description() default "";
    int StatusCode() default 0;
    boolean IsDefaultResponse() default false;
    String ResponseType() default "";
}
