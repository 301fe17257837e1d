package net.servicestack.client;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface AutoQueryViewerField {
    String Title() default "";
    String Description() default "";
    String LayoutHint() default "";
    String ValueFormat() default "";
    boolean Hide() default false;
}
