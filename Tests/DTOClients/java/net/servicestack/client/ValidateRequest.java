package net.servicestack.client;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface ValidateRequest {
    String Validator() default "";
    String Condition() default "";
    String ErrorCode() default "";
    String Message() default "";
    int StatusCode() default 0;
}
